<?php
function f() {
  echo 1;
