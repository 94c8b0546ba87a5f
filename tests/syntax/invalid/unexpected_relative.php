<?php
foo namespace\A;
