<?php
class A {
  public function f() {}
