<?php
str_pad($s, ?2);
