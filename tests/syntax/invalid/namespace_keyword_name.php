<?php
namespace interface I {}
