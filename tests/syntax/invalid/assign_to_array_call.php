<?php
[array($a)] = $b;
