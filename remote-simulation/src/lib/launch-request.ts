import type { SimulationMode } from '@portal/contract';

/** The contract's modes; redeclared as a value because browser code imports the contract's types only. */
export const MODES = ['VR', 'Desktop'] as const satisfies readonly SimulationMode[];

/** docs/requirements.md#main-area: an LTI launch that names no mode starts on the desktop. */
export const DEFAULT_LTI_MODE: SimulationMode = 'Desktop';

/**
 * Navigation state the drill-down hands to the launch screen. It names no URL scheme: the launch
 * starts with the product's own (launch-link.ts); only an LTI query may ask for another.
 */
export interface LaunchNavigationState {
  configuration: string | null;
  mode: SimulationMode;
  productId: number;
  categoryId: number | null;
}

/** Everything the launch screen needs to start a session. */
export interface LaunchRequest {
  productId: number;
  /** null or '' = the leaf has no configuration: the "problem starting simulation" page. */
  configuration: string | null;
  mode: SimulationMode;
  categoryId: number | null;
  /** The learning platform's launch this session belongs to; null outside LTI. */
  launchId: string | null;
  /**
   * The URL scheme an LTI launch query names (docs/requirements.md#data (Launch parameters)): one of
   * the product's launchProtocols, or the launch is refused (launch-link.ts). Its text never goes
   * into the link; the allow-list entry it equals does. null when the query names none (the
   * product's own scheme), and always outside LTI.
   */
  protocol: string | null;
}

export function isMode(value: unknown): value is SimulationMode {
  return typeof value === 'string' && (MODES as readonly string[]).includes(value);
}

function positiveInt(value: unknown): number | null {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d+$/.test(value)
        ? Number(value)
        : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null;

function field(state: unknown, key: string): unknown {
  return typeof state === 'object' && state !== null
    ? (state as Record<string, unknown>)[key]
    : undefined;
}

/**
 * Reads the launch parameters. Outside LTI they come from navigation state only (a bookmarked
 * /simulation/launch has none and goes back to the cards). Under LTI the learning platform's query
 * string is the source — it survives a reload — with navigation state filling any gap.
 * Returns null when there is nothing to launch. A `protocol` only picks among the product's
 * allow-listed schemes: a crafted link must not choose where the session token goes.
 */
export function readLaunchRequest({
  lti,
  search,
  state,
}: {
  lti: boolean;
  search: string;
  state: unknown;
}): LaunchRequest | null {
  const query = new URLSearchParams(search);
  const pick = (key: string): unknown =>
    lti ? (query.get(key) ?? field(state, key)) : field(state, key);

  const productId = positiveInt(pick('productId'));
  if (productId === null) return null;
  const rawMode = pick('mode');
  const mode = isMode(rawMode) ? rawMode : lti && rawMode == null ? DEFAULT_LTI_MODE : null;
  if (mode === null) return null;
  return {
    productId,
    configuration: text(pick('configuration')),
    mode,
    categoryId: positiveInt(pick('categoryId')),
    launchId: lti ? text(pick('launchId')) : null,
    protocol: lti ? text(query.get('protocol')) : null,
  };
}

/**
 * The query an LTI launch carries: the platform's own parameters (launchId…) kept, the launch
 * parameters set, so the launch screen reads the same thing after a reload.
 */
export function toLtiLaunchSearch(currentSearch: string, state: LaunchNavigationState): string {
  const query = new URLSearchParams(currentSearch);
  query.set('productId', String(state.productId));
  query.set('mode', state.mode);
  if (state.configuration) query.set('configuration', state.configuration);
  else query.delete('configuration');
  if (state.categoryId !== null) query.set('categoryId', String(state.categoryId));
  else query.delete('categoryId');
  return `?${query.toString()}`;
}
