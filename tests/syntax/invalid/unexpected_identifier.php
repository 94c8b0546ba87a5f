<?php
foo bar;
