/* theme.js: applies the remembered colour scheme before the page paints. */
(function () {
  try {
    var t = localStorage.getItem('ssg-theme');
    if (t === 'dark' || t === 'light') document.documentElement.setAttribute('data-theme', t);
  } catch (e) { /* storage may be off: follow prefers-color-scheme */ }
})();
