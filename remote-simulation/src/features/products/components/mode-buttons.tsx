import styled from 'styled-components';
import type { Product, ProductCategory, SimulationMode } from '@portal/contract';
import { useAuth } from '@portal/shared-auth';
import { Button, Spinner, useLocation, useNavigate, useTranslation } from '@portal/shared-ui';
import { isLtiPath, paths } from '../../../config/paths';
import { MODES, toLtiLaunchSearch, type LaunchNavigationState } from '../../../lib/launch-request';
import { useEntitlementModes } from '../api/get-entitlement-modes';

const Group = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.sm};
`;

const Notice = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.textMuted};
`;

/** One launch button per mode the user's licences include (docs/requirements.md#main-area), in the contract's order. */
export function ModeButtons({ product, leaf }: { product: Product; leaf: ProductCategory }) {
  const { t } = useTranslation('simulation');
  const { user } = useAuth();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const lti = isLtiPath(pathname);
  const { data, error } = useEntitlementModes(user?.id, product.id);

  if (error) return <Notice role="alert">{t('modes.loadError')}</Notice>;
  if (!data) return <Spinner size={24} label={t('modes.loading')} />;

  const modes = MODES.filter((mode) => data.modes.includes(mode));
  if (modes.length === 0) return <Notice>{t('modes.none')}</Notice>;

  const launch = (mode: SimulationMode) => {
    const state: LaunchNavigationState = {
      configuration: leaf.simulationConfiguration,
      mode,
      productId: product.id,
      categoryId: leaf.id,
    };
    // Under LTI the launch screen reads the query (it survives a reload); state is the same data.
    void navigate(paths.launch.getHref(lti, lti ? toLtiLaunchSearch(search, state) : ''), {
      state,
    });
  };

  return (
    <Group role="group" aria-label={t('modes.label')}>
      {modes.map((mode) => (
        <Button key={mode} onClick={() => launch(mode)}>
          {t(`modes.${mode}`)}
        </Button>
      ))}
    </Group>
  );
}
