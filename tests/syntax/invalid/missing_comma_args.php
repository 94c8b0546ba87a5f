<?php
f(1 2);
