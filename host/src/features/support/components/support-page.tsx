import styled from 'styled-components';
import { usePageTitle, useTranslation } from '@portal/shared-ui';
import { SUPPORT_EMAIL } from '../../../components/support-contact';

const Section = styled.section`
  margin-bottom: ${({ theme }) => theme.space.xl};
  max-width: 70ch;

  dt {
    font-weight: ${({ theme }) => theme.fontWeights.bold};
    margin-top: ${({ theme }) => theme.space.md};
  }

  dd {
    margin: ${({ theme }) => `${theme.space.xs} 0 0`};
  }
`;

const FAQ_KEYS = ['launch', 'vrOrDesktop', 'notInstalled', 'reports', 'language'] as const;
const REQUIREMENT_KEYS = ['os', 'browser', 'vr', 'network'] as const;

export function SupportPage() {
  const { t } = useTranslation();
  usePageTitle(t('support.title'));
  return (
    <>
      <h1>{t('support.title')}</h1>
      <p>{t('support.intro')}</p>

      <Section aria-labelledby="support-contact">
        <h2 id="support-contact">{t('support.contactHeading')}</h2>
        <p>{t('support.contactText')}</p>
        <p>
          <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
        </p>
        <p>{t('support.contactHours')}</p>
      </Section>

      <Section aria-labelledby="support-faq">
        <h2 id="support-faq">{t('support.faqHeading')}</h2>
        <dl>
          {FAQ_KEYS.map((key) => (
            <div key={key}>
              <dt>{t(`support.faq.${key}.question`)}</dt>
              <dd>{t(`support.faq.${key}.answer`)}</dd>
            </div>
          ))}
        </dl>
      </Section>

      <Section aria-labelledby="support-requirements">
        <h2 id="support-requirements">{t('support.requirementsHeading')}</h2>
        <ul>
          {REQUIREMENT_KEYS.map((key) => (
            <li key={key}>{t(`support.requirements.${key}`)}</li>
          ))}
        </ul>
      </Section>
    </>
  );
}
