import { axisTicks } from '../chart-frame';

describe('axis ticks', () => {
  it('run from 0 past the largest value in round steps', () => {
    expect(axisTicks(100)).toEqual([0, 50, 100]);
    expect(axisTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(axisTicks(1.12)).toEqual([0, 0.5, 1, 1.5]);
    expect(axisTicks(0)).toEqual([0, 1]);
  });
});
