<?php
enum E { case A; }
var_dump(E::A instanceof E);
new E;
