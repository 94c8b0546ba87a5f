<?php
enum E: float { case A = 1.5; }
