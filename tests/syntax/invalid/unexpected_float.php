<?php
foo 1.5;
