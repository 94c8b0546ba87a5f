<?php
enum Suit: string { case Hearts = 'H'; case Spades = 'S'; }
var_dump(Suit::tryFrom('Z'), Suit::from(1 == 1 ? 'S' : 'H'));
Suit::from('Z');
