<?php
class Test { function m() { try { foo(); } catch (static $e) {} } }
