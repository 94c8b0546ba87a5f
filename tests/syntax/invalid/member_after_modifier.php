<?php
class A {
    public ->f() {}
}
