<?php
f(static x);
