<?php
enum Num: int { case One = 1; }
var_dump(Num::from('1'), Num::tryFrom(1.0), Num::tryFrom(true));
var_dump(Num::tryFrom(null));
Num::from('one');
