<?php
class A { function f {} }
