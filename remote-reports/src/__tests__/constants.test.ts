import * as contract from '@portal/contract';
import * as local from '../config/constants';

// The bundle repeats a few contract numbers instead of importing the schema module; these keep
// the copies honest.
describe('constants repeated from the contract', () => {
  it('match the contract', () => {
    expect(local.ANALYSIS_STATUS).toEqual(contract.ANALYSIS_STATUS);
    expect(local.ANALYSIS_MAX_LENGTH).toBe(contract.ANALYSIS_MAX_LENGTH);
    expect(local.TABLE_PAGE_SIZE).toBe(contract.TABLE_PAGE_SIZE);
    expect(local.INVALID_PAGE).toBe(contract.INVALID_PAGE);
    expect(local.LESSON_PARTS_PER_LESSON).toBe(contract.LESSON_PARTS_PER_LESSON);
    expect(local.FLUOROSCOPY_SECONDS).toBe(contract.FLUOROSCOPY_SECONDS);
    expect(local.MAX_IMAGE_IDS_PER_CALL).toBe(contract.ImageBatchQuery.properties.id.maxItems);
    expect(local.INSIGHT_MAX_RANGE_DAYS).toBe(contract.INSIGHT_MAX_RANGE_DAYS);
    expect(local.INSIGHT_DEFAULT_RANGE_DAYS).toBe(contract.INSIGHT_DEFAULT_RANGE_DAYS);
    expect(local.INSIGHT_CONFIGURATION_MAX_LENGTH).toBe(contract.InsightQuery.properties.configuration.maxLength);
    expect(local.MAX_ID).toBe(contract.MAX_INT4);
  });
});
