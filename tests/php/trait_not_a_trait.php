<?php
class K {}
class C { use K; }
