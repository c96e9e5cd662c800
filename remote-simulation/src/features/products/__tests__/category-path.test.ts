import { parseCategoryPath, parseProductId } from '../category-path';

describe('the category path', () => {
  it('is a list of numeric ids, empty for the product itself', () => {
    expect(parseCategoryPath('')).toEqual([]);
    expect(parseCategoryPath(undefined)).toEqual([]);
    expect(parseCategoryPath('10/12')).toEqual([10, 12]);
    expect(parseCategoryPath('10/12/')).toEqual([10, 12]);
  });

  it('is not a page when a segment is not an id', () => {
    expect(parseCategoryPath('10/knee')).toBeNull();
    expect(parseCategoryPath('10//12')).toBeNull();
    expect(parseCategoryPath('0')).toBeNull();
    expect(parseCategoryPath('-1')).toBeNull();
  });

  it('needs a positive numeric product id', () => {
    expect(parseProductId('3')).toBe(3);
    expect(parseProductId('radiography')).toBeNull();
    expect(parseProductId('01')).toBeNull();
  });
});
