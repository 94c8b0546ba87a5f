<?php
class Foo extends static {}
