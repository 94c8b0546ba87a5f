<?php
declare(ticks=1);

namespace A\B {
    use C\D;
    class E extends D {}
    function f() { return __NAMESPACE__; }
    const G = 1;
}

namespace {
    use A\B\E;
    echo A\B\f(), \A\B\G, E::class, namespace\strlen('x');
}

namespace C\D {
    interface I {}
}
