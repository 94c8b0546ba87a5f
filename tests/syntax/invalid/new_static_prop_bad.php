<?php
throw new Exce::tion("x");
