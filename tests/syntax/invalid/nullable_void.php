<?php
function f(): ?void {}
