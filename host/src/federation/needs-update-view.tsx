import { Link, useTranslation } from '@portal/shared-ui';
import styled from 'styled-components';
import { paths } from '../config/paths';

const Wrapper = styled.section`
  padding: ${({ theme }) => theme.space.lg};
`;

/**
 * A part of the portal built for a newer (or older) portal than this one: it is not run, because
 * it would fail later in ways nobody could explain. The rest of the portal keeps working.
 */
export function NeedsUpdateView() {
  const { t } = useTranslation();
  return (
    <Wrapper role="alert">
      <h1>{t('federation.needsUpdate.heading')}</h1>
      <p>{t('federation.needsUpdate.text')}</p>
      <Link to={paths.simulation.getHref()}>{t('federation.needsUpdate.home')}</Link>
    </Wrapper>
  );
}
