<?php
enum S: string { case A = 'a'; const C = 1; }
enum P { case X; }
var_dump(serialize(S::A), serialize([P::X, 'k' => S::A]), unserialize(serialize([P::X, S::A])));
var_dump(unserialize('E:3:"S:B";'), unserialize('E:3:"S:C";'), unserialize('E:3:"Q:A";'));
