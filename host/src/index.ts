// Async boundary: the federation runtime settles shared singletons before any of them loads.
import('./bootstrap');
