import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { isUuid } from '@portal/contract';
import styled from 'styled-components';
import type {
  FieldErrors,
  LtiDeepLinkAnswer,
  LtiDeepLinkProduct,
  LtiDeepLinkRequest,
  ProductCategory,
  SimulationMode,
} from '@portal/contract';
import { ApiError, useAuth } from '@portal/shared-auth';
import {
  Button,
  ErrorBanner,
  PageSpinner,
  useLocation,
  useNavigate,
  usePageTitle,
  useSearchParams,
  useTranslateErrorMessage,
  useTranslation,
} from '@portal/shared-ui';
import { SelectField } from '@portal/shared-ui/widgets';
import { CenteredPage } from '../../../components/centered-page';
import { useLaunchSignIn } from '../hooks/use-launch-sign-in';
import {
  deepLinkReturnAction,
  useAnswerDeepLink,
  useCategoryTree,
  useDeepLinkRequest,
} from '../api/deep-link';

/** The shared-ui message the fields already translate (errorMessage.*). */
const REQUIRED = 'This field is required.';

const Fieldset = styled.fieldset`
  border: 0;
  padding: 0;
  margin: ${({ theme }) => `0 0 ${theme.space.md}`};

  legend {
    font-weight: ${({ theme }) => theme.fontWeights.medium};
    margin-bottom: ${({ theme }) => theme.space.xs};
  }

  label {
    display: inline-flex;
    align-items: center;
    gap: ${({ theme }) => theme.space.xs};
    margin-right: ${({ theme }) => theme.space.lg};
    min-height: 40px;
  }
`;

const ErrorText = styled.p`
  margin: ${({ theme }) => `${theme.space.xs} 0 0`};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.errorText};
  font-weight: ${({ theme }) => theme.fontWeights.medium};
`;

const Summary = styled.section`
  margin: ${({ theme }) => `${theme.space.lg} 0`};
  padding: ${({ theme }) => theme.space.md};
  background: ${({ theme }) => theme.colors.surfaceMuted};
  border-radius: ${({ theme }) => theme.radii.sm};

  h2 {
    font-size: ${({ theme }) => theme.fontSizes.md};
    margin: 0 0 ${({ theme }) => theme.space.xs};
  }

  p {
    margin: 0;
  }
`;

/** The first message of a field-shaped error body, if the body is one. */
function firstMessage(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  for (const value of Object.values(body as Record<string, unknown>)) {
    if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
    if (typeof value === 'string') return value;
  }
  return null;
}

/**
 * The instructor's picker for an LtiDeepLinkingRequest (issue #10 point 5): product, a leaf of its
 * category tree, mode; "Add to course" signs the answer and the browser carries it back to the
 * learning platform. A signed-out instructor is signed in by the request itself, as on
 * /lti/launch (the API's `idp`, issue #22); without it, or when that did not work, by the password,
 * back to the same URL.
 */
export function LtiDeepLinkPage() {
  const { t } = useTranslation();
  usePageTitle(t('ltiDeepLink.title'));
  const [params] = useSearchParams();
  const { pathname, search } = useLocation();
  const { status, login } = useAuth();
  const launchId = params.get('launchId');
  const validLaunchId = launchId !== null && isUuid(launchId) ? launchId : null;
  const returnPath = `${pathname}${search}`;
  const signIn = useLaunchSignIn(validLaunchId, params.get('idp'), returnPath);

  if (!validLaunchId || status === 'error') return <DeepLinkFailed />;
  if (status === 'unauthenticated' && signIn.starting) {
    return <PageSpinner label={t('lti.signingIn')} />;
  }
  if (status === 'unauthenticated') {
    return (
      <CenteredPage>
        <h1>{t('lti.loginHeading')}</h1>
        {signIn.failed && <p role="alert">{t('lti.signInByLaunchFailed')}</p>}
        <p>{t('ltiDeepLink.loginMessage')}</p>
        <Button onClick={() => void login(returnPath)}>{t('lti.loginButton')}</Button>
      </CenteredPage>
    );
  }
  if (status !== 'authenticated') return <PageSpinner />;
  return <DeepLinkLoader launchId={validLaunchId} />;
}

function DeepLinkFailed({ reason }: { reason?: string | null }) {
  const { t } = useTranslation();
  const translate = useTranslateErrorMessage();
  const navigate = useNavigate();
  return (
    <CenteredPage>
      <h1>{t('ltiDeepLink.failedHeading')}</h1>
      <p>{reason ? translate(reason) : t('ltiDeepLink.failedMessage')}</p>
      <p>{t('ltiDeepLink.startAgain')}</p>
      <Button variant="link" onClick={() => void navigate(-1)}>
        {t('lti.goBack')}
      </Button>
    </CenteredPage>
  );
}

function DeepLinkLoader({ launchId }: { launchId: string }) {
  const request = useDeepLinkRequest(launchId);
  if (request.error) {
    const body = request.error instanceof ApiError ? request.error.body : null;
    return <DeepLinkFailed reason={firstMessage(body)} />;
  }
  if (!request.data) return <PageSpinner />;
  return <DeepLinkPicker request={request.data} />;
}

/** The chosen path through the tree: one node per level, the last a leaf when complete. */
function nodesOf(tree: readonly ProductCategory[], path: readonly number[]): ProductCategory[] {
  const nodes: ProductCategory[] = [];
  let level: readonly ProductCategory[] = tree;
  for (const id of path) {
    const node = level.find((n) => n.id === id);
    if (!node) break;
    nodes.push(node);
    level = node.children;
  }
  return nodes;
}

function DeepLinkPicker({ request }: { request: LtiDeepLinkRequest }) {
  const { t, i18n } = useTranslation();
  const translate = useTranslateErrorMessage();
  const answerRequest = useAnswerDeepLink(request.launchId);
  const [productId, setProductId] = useState<number | null>(
    request.products.length === 1 ? request.products[0]!.id : null,
  );
  const [path, setPath] = useState<number[]>([]);
  const [mode, setMode] = useState<SimulationMode | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [answer, setAnswer] = useState<LtiDeepLinkAnswer | null>(null);
  const modeName = useId();

  const product: LtiDeepLinkProduct | undefined = request.products.find((p) => p.id === productId);
  const tree = useCategoryTree(productId, i18n.language);
  const nodes = nodesOf(tree.data ?? [], path);
  const last = nodes.at(-1);
  const leaf = last && last.children.length === 0 ? last : null;
  const modes = product?.modes ?? [];
  const chosenMode = mode && modes.includes(mode) ? mode : modes.length === 1 ? modes[0]! : null;

  // The category selects: the roots, then the children of each chosen node that has any.
  const levels: (readonly ProductCategory[])[] = [];
  if (tree.data && tree.data.length > 0) {
    levels.push(tree.data);
    for (const node of nodes) if (node.children.length > 0) levels.push(node.children);
  }

  const clearError = (field: string) =>
    setErrors((current) => {
      if (!(field in current)) return current;
      const { [field]: _removed, ...rest } = current;
      return rest;
    });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const missing: FieldErrors = {};
    if (!product) missing.productId = [REQUIRED];
    else if (!leaf) missing.categoryId = [REQUIRED];
    if (product && !chosenMode) missing.mode = [REQUIRED];
    if (Object.keys(missing).length > 0 || !product || !leaf || !chosenMode) {
      setErrors(missing);
      return;
    }
    setSubmitting(true);
    try {
      const result = await answerRequest({
        productId: product.id,
        categoryId: leaf.id,
        mode: chosenMode,
      });
      if (result.isSuccess) {
        setAnswer(result.data);
        return;
      }
      if (result.error) setErrors(result.error);
      else setFailure(t('ltiDeepLink.sendFailed'));
    } catch (error) {
      const message = error instanceof ApiError ? firstMessage(error.body) : null;
      setFailure(message ? translate(message) : t('ltiDeepLink.sendFailed'));
    } finally {
      setSubmitting(false);
    }
  };

  if (answer)
    return (
      <ReturnToPlatform launchId={request.launchId} jwt={answer.jwt} language={i18n.language} />
    );

  const summary =
    product && leaf && chosenMode
      ? t('ltiDeepLink.summaryText', {
          path: [product.name, ...nodes.map((n) => n.displayName)].join(' › '),
          mode: t(`ltiDeepLink.modes.${chosenMode}`),
        })
      : null;
  const launchErrors = errors.launchId;

  return (
    <CenteredPage>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <h1>{t('ltiDeepLink.title')}</h1>
        <p>{t('ltiDeepLink.intro', { platform: request.platform.issuer })}</p>
        {failure && <ErrorBanner errors={[failure]} />}
        {launchErrors && <ErrorBanner errors={launchErrors} />}
        {request.products.length === 0 ? (
          <p>{t('ltiDeepLink.noProducts')}</p>
        ) : (
          <>
            <SelectField
              label={t('ltiDeepLink.product')}
              required
              value={productId === null ? '' : String(productId)}
              placeholder={t('ltiDeepLink.selectProduct')}
              options={request.products.map((p) => ({ value: String(p.id), label: p.name }))}
              error={errors.productId}
              onChange={(event) => {
                setProductId(event.target.value ? Number(event.target.value) : null);
                setPath([]);
                setMode(null);
                clearError('productId');
                clearError('categoryId');
                clearError('mode');
              }}
            />
            {product && tree.error && <ErrorBanner errors={[t('ltiDeepLink.treeFailed')]} />}
            {product && !tree.data && !tree.error && (
              <p role="status">{t('ltiDeepLink.loadingCategories')}</p>
            )}
            {levels.map((options, depth) => (
              <SelectField
                key={depth === 0 ? `root-${productId}` : `level-${path[depth - 1]}`}
                label={
                  depth === 0
                    ? t('ltiDeepLink.category')
                    : t('ltiDeepLink.subcategory', { level: depth + 1 })
                }
                required
                value={path[depth] === undefined ? '' : String(path[depth])}
                placeholder={t('ltiDeepLink.selectCategory')}
                options={options.map((n) => ({ value: String(n.id), label: n.displayName }))}
                // The error belongs under the select still to choose (the last one shown).
                error={depth === levels.length - 1 ? errors.categoryId : undefined}
                onChange={(event) => {
                  const id = event.target.value ? Number(event.target.value) : null;
                  setPath((current) =>
                    id === null ? current.slice(0, depth) : [...current.slice(0, depth), id],
                  );
                  clearError('categoryId');
                }}
              />
            ))}
            {product && (
              <Fieldset aria-describedby={errors.mode ? `${modeName}-error` : undefined}>
                <legend>{t('ltiDeepLink.mode')}</legend>
                {modes.map((m) => (
                  <label key={m}>
                    <input
                      type="radio"
                      name={modeName}
                      value={m}
                      checked={chosenMode === m}
                      onChange={() => {
                        setMode(m);
                        clearError('mode');
                      }}
                    />
                    {t(`ltiDeepLink.modes.${m}`)}
                  </label>
                ))}
                {errors.mode && (
                  <ErrorText id={`${modeName}-error`}>
                    {errors.mode.map(translate).join(' ')}
                  </ErrorText>
                )}
              </Fieldset>
            )}
            <Summary aria-labelledby={`${modeName}-summary`}>
              <h2 id={`${modeName}-summary`}>{t('ltiDeepLink.summary')}</h2>
              <p aria-live="polite">{summary ?? t('ltiDeepLink.summaryEmpty')}</p>
            </Summary>
            <Button type="submit" disabled={submitting}>
              {t('ltiDeepLink.submit')}
            </Button>
          </>
        )}
      </form>
    </CenteredPage>
  );
}

/**
 * Deep Linking 2.0 §4.2: the answer travels as the form field `JWT` of a browser form post. It
 * goes to the API's return page on this origin, which posts it on to the platform.
 */
function ReturnToPlatform({
  launchId,
  jwt,
  language,
}: {
  launchId: string;
  jwt: string;
  language: string;
}) {
  const { t } = useTranslation();
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.submit();
  }, []);
  return (
    <CenteredPage>
      <form ref={form} method="post" action={deepLinkReturnAction(launchId)}>
        <input type="hidden" name="JWT" value={jwt} />
        <input type="hidden" name="language" value={language} />
        <h1>{t('ltiDeepLink.returningHeading')}</h1>
        <p role="status">{t('ltiDeepLink.returningMessage')}</p>
        <Button type="submit">{t('ltiDeepLink.continue')}</Button>
      </form>
    </CenteredPage>
  );
}
