<?php
foo \A\B;
