<?php
else { }
