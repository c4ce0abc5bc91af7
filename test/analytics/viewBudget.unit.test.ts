import test from 'ava';
import { ManualClock } from '../../src/platform/Clock.js';
import { ViewBudget } from '../../src/features/analytics/ViewBudget.js';

const options = (clock: ManualClock) => ({ repeatViewMs: 600_000, viewsPerAddressPerMinute: 5, visitorsPerAddressPerHour: 3, clock });

test('the same visitor fetching one page again within the window is one view; after it, or another page, counts again', (t) => {
  const clock = new ManualClock('2026-03-01T10:00:00Z');
  const budget = new ViewBudget(options(clock));
  const overflow = () => 'overflow';
  t.like(budget.admit('10.0.0.1', 'v1', '/', overflow), { count: true, visitor: 'v1' });
  t.like(budget.admit('10.0.0.1', 'v1', '/', overflow), { count: false, reason: 'repeat' });
  clock.advance(599_000);
  t.like(budget.admit('10.0.0.1', 'v1', '/', overflow), { count: false, reason: 'repeat' });
  t.like(budget.admit('10.0.0.1', 'v1', '/guide', overflow), { count: true });
  clock.advance(1_000);
  t.like(budget.admit('10.0.0.1', 'v1', '/', overflow), { count: true }, 'the window has passed');
  clock.advance(-3_600_000);
  t.like(budget.admit('10.0.0.1', 'v1', '/', overflow), { count: true }, 'a clock set back counts again instead of never');
});

test("one address's views stop at its own budget and leave other addresses theirs; new visitors past the hourly budget become one overflow visitor", (t) => {
  const clock = new ManualClock('2026-03-01T10:00:00Z');
  const budget = new ViewBudget(options(clock));
  const verdicts = Array.from({ length: 8 }, (_, i) => budget.admit('10.0.0.1', `ua${i}`, '/', () => 'overflow-10.0.0.1'));
  t.deepEqual(
    verdicts.map((v) => (v.count ? v.visitor : v.reason)),
    ['ua0', 'ua1', 'ua2', 'overflow-10.0.0.1', 'overflow-10.0.0.1', 'address', 'address', 'address'],
  );
  t.like(
    budget.admit('10.0.0.2', 'other', '/', () => 'x'),
    { count: true, visitor: 'other' },
    'another address is untouched',
  );
  clock.advance(60_000);
  t.like(
    budget.admit('10.0.0.1', 'ua0', '/guide', () => 'overflow'),
    { count: true, visitor: 'ua0' },
    'a known visitor keeps its id',
  );
  t.like(
    budget.admit('10.0.0.1', 'ua9', '/guide', () => 'overflow'),
    { count: true, visitor: 'overflow' },
  );
  clock.advance(3_600_000);
  t.like(
    budget.admit('10.0.0.1', 'ua9', '/', () => 'overflow'),
    { count: true, visitor: 'ua9' },
    'a new hour, new visitors again',
  );
});
