// The body budget: bytes are taken only when they fit in what is left, a refusal takes nothing, and
// bytes given back can be taken again.
import test from 'ava';
import { createBodyBudget } from '../../../src/http/body-budget.js';

test('bytes are taken while they fit, up to the limit exactly', (t) => {
  const budget = createBodyBudget(1000);
  t.true(budget.take(600));
  t.true(budget.take(400));
  t.is(budget.inUse(), 1000);
  t.false(budget.take(1), 'one byte past the limit');
});

test('a refusal takes nothing, so a smaller body still fits', (t) => {
  const budget = createBodyBudget(1000);
  t.true(budget.take(700));
  t.false(budget.take(400));
  t.is(budget.inUse(), 700);
  t.true(budget.take(300));
});

test('bytes given back can be taken again', (t) => {
  const budget = createBodyBudget(1000);
  t.true(budget.take(1000));
  budget.give(1000);
  t.is(budget.inUse(), 0);
  t.true(budget.take(1000));
});
