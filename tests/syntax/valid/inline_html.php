<html>
<?php $title = 'x'; ?>
<title><?= $title ?></title>
<?= $a, $b; ?>
<?php if ($cond): ?>
  <p>yes</p>
<?php elseif ($other): ?>
  <p>other</p>
<?php else: ?>
  <p>no</p>
<?php endif; ?>
<?php foreach ($items as $item): ?>
  <li><?= $item ?></li>
<?php endforeach ?>
<?php while (false): ?>x<?php endwhile; ?>
<?php for (;false;): ?>y<?php endfor ?>
<?php switch ($x): ?>
<?php case 1: ?>
one
<?php endswitch ?>
<?php
// comment to the end ?> text after comment close
<?php # hash comment ?>
<?php /* block */ ?>
<?php echo 'no newline after close tag' ?>
<?PHP echo 'upper'; ?>
<?php
echo 'last, no closing tag';
