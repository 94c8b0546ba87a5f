#!/usr/bin/env python3
"""Random nests of try/catch/finally, foreach, if, break/continue, return and
throws (intdiv(1, 0), $v % 0, `throw 1`), each statement echoing a marker.

Differential use (needs php):  for s in $(seq 1 500); do
  python3 tests/php/exceptions_random.py $s > /tmp/t.php; touch -d '10 seconds ago' /tmp/t.php
  cmp <(php -n /tmp/t.php) <(target/release/tusk /tmp/t.php) || echo "seed $s"; done
(opcache dumps need files older than 2 s: also compare with
../shared/tools/dumpcmp --ranges). exceptions_random_7/_333.php were made by it.
"""
import random, sys
seed = int(sys.argv[1]); random.seed(seed)
ctr = [0]
def m():
    ctr[0] += 1; return f'echo "{ctr[0]} ";'
def stmt(d, loops, in_fin, in_func):
    r = random.random()
    if d > 3 or r < 0.3:
        c = random.random()
        if c < 0.35: return m()
        if c < 0.5: return 'intdiv(1, 0);'
        if c < 0.55: return '$z = $v % 0;'
        if c < 0.6: return 'throw 1;'
        if c < 0.7 and loops > 0 and not in_fin:
            return random.choice(['break;', 'continue;']) if loops == 1 else random.choice(['break;', 'continue;', 'break 2;', 'continue 2;'])
        if c < 0.8 and in_func: return random.choice(['return "r%d";' % ctr[0], 'return $v . "x";'])
        return m()
    if r < 0.6:
        body = block(d + 1, loops, in_fin, in_func)
        s = 'try { ' + body + ' }'
        n = random.choice([0, 1, 1, 2])
        classes = ['DivisionByZeroError', 'Error', 'TypeError', 'ArithmeticError | Error', 'Exception', 'Throwable']
        for _ in range(n):
            s += ' catch (%s $e) { %s %s }' % (random.choice(classes), m(), block(d + 1, loops, in_fin, in_func))
        if n == 0 or random.random() < 0.5:
            s += ' finally { %s %s }' % (m(), block(d + 1, 0, True, in_func))  # no break/continue out of a finally
        return s
    if r < 0.8:
        return 'foreach ([1, 2] as $i%d) { %s %s }' % (d, m(), block(d + 1, loops + 1, False, in_func))
    return 'if ($v) { %s } else { %s }' % (block(d + 1, loops, in_fin, in_func), block(d + 1, loops, in_fin, in_func))
def block(d, loops, in_fin, in_func):
    return ' '.join(stmt(d, loops, in_fin, in_func) for _ in range(random.randint(1, 2)))
out = ['<?php']
for k in range(3):
    out.append('function f%d($v) { %s return "end"; }' % (k, block(0, 0, False, True)))
for k in range(3):
    for v in (0, 1):
        out.append('try { echo f%d(%d), "\\n"; } catch (Throwable $e) { echo "caught\\n"; }' % (k, v))
print('\n'.join(out))
