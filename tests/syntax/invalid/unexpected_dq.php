<?php
foo "a $b";
