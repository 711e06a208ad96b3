import { swapDeltas } from '../../../src/domain/decoration/swapDeltas';
import { point } from './poolBuilder';

const NOW = 1_700_000_000;
const H = 3_600;
const ID = 'p';

describe('24 h volume and fees', () => {
  it('subtracts the point nearest to 24 h ago (points 30 h, 23.5 h and 2 h old: the 23.5 h one)', () => {
    const history = [
      point(ID, NOW - 30 * H, '50', '0.5'),
      point(ID, NOW - 23.5 * H, '150', '1.5'),
      point(ID, NOW - 2 * H, '190', '1.9'),
    ];
    const d = swapDeltas({ totalSwapVolume: '200', totalSwapFee: '2' }, history, NOW);
    expect([d.volume.toFixed(), d.fees.toFixed(), d.extrapolated]).toEqual(['50', '0.5', false]);
  });

  it('takes the older point when two are equally near (25 h and 23 h: 25 h)', () => {
    const history = [point(ID, NOW - 23 * H, '150', '1.5'), point(ID, NOW - 25 * H, '100', '1')];
    const d = swapDeltas({ totalSwapVolume: '200', totalSwapFee: '2' }, history, NOW);
    expect([d.volume.toFixed(), d.fees.toFixed()]).toEqual(['100', '1']);
  });

  it('scales from the oldest point when none is 20 h old, and says so (12 h: +60 volume -> 120 a day)', () => {
    const history = [point(ID, NOW - 6 * H, '150', '1.5'), point(ID, NOW - 12 * H, '100', '1')];
    const d = swapDeltas({ totalSwapVolume: '160', totalSwapFee: '1.6' }, history, NOW);
    expect([d.volume.toFixed(), d.fees.toFixed(), d.extrapolated]).toEqual(['120', '1.2', true]);
  });

  it('gives 0, marked extrapolated, without history (or with only a point taken now)', () => {
    for (const history of [[], [point(ID, NOW, '100', '1')]]) {
      const d = swapDeltas({ totalSwapVolume: '160', totalSwapFee: '1.6' }, history, NOW);
      expect([d.volume.toFixed(), d.fees.toFixed(), d.extrapolated]).toEqual(['0', '0', true]);
    }
  });

  it('never goes negative when the cumulative counter shrank (subgraph re-index)', () => {
    const d = swapDeltas({ totalSwapVolume: '90', totalSwapFee: '0.9' }, [point(ID, NOW - 24 * H, '100', '1')], NOW);
    expect([d.volume.toFixed(), d.fees.toFixed()]).toEqual(['0', '0']);
  });
});
