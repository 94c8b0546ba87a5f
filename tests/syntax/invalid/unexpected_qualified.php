<?php
foo A\B;
