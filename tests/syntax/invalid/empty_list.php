<?php
[] = $a;
