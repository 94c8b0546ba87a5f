<?php
class A {
    use T { T::m as protected other name; }
}
