<?php
enum E { case A; }
$x = clone E::A;
