import fc from 'fast-check';
import { REPORT_ORDERING_FIELDS } from '@portal/contract';
import { account, authHeader } from '../../../../helper';
import { hostileText } from '../../../../security/fuzz-arbitraries';
import { fuzzer, type Fuzzer } from '../../../../security/suite-shapes';

/**
 * The learner report list's query (issue #23: `learnerId` next to the text `filter`) for the fuzz
 * suite: never a 5xx, whoever asks and whatever the keys hold. That a learner id outside the
 * caller's organisation lists nothing is report-list.test.ts's.
 */
const learner = account('learner', 'Demo Hospital');
const educator = account('educator', 'Demo Hospital');
const orgAdmin = account('org admin', 'Demo Hospital');
const otherLearner = account('learner', 'Other College');
const sysAdmin = account('sys admin');

const hostile = hostileText(['', ' ', '%', '_', '\\', "'; drop table users; --", '%00', '-id']);

const value = fc.oneof(
  fc.constantFrom(learner.sub, otherLearner.sub, educator.sub, ...REPORT_ORDERING_FIELDS),
  fc.constantFrom(...REPORT_ORDERING_FIELDS).map((f) => `-${f}`),
  fc.uuid().map(String),
  fc.integer().map(String),
  hostile,
);

export const reportListFuzzers: Record<string, Fuzzer> = {
  'GET /api/v1/report/learner': fuzzer({
    input: fc.record({
      as: fc.constantFrom(educator.sub, orgAdmin.sub, sysAdmin.sub, learner.sub),
      query: fc.dictionary(
        fc.constantFrom('learnerId', 'filter', 'page', 'pageSize', 'ordering', 'x'),
        value,
        { maxKeys: 4 },
      ),
    }),
    async request(_ctx, input) {
      return {
        method: 'GET',
        url: `/api/v1/report/learner?${new URLSearchParams(input.query)}`,
        headers: await authHeader(input.as),
      };
    },
  }),
};
