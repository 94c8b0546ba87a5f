<?php
class A implements => {}
