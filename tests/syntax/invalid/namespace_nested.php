<?php
namespace A {
    namespace B { }
}
