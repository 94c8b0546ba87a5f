<?php
'abc'[0] = 1;
