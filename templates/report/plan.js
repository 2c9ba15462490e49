// Filtering, sorting and expanding the tool list. The page works without this script; it only reorders and
// hides elements that are already there, and never turns text into markup.
(() => {
  const list = document.getElementById('tool-list');
  const filter = document.getElementById('filter');
  const sort = document.getElementById('sort');
  const toggle = document.getElementById('toggle');
  const empty = document.getElementById('no-match');
  if (!list || !filter || !sort || !toggle || !empty) return;
  const items = Array.from(list.children);
  filter.addEventListener('input', () => {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const item of items) {
      const text = item.getAttribute('data-search') || '';
      const match = words.every((word) => text.includes(word));
      item.hidden = !match;
      if (match) shown++;
    }
    empty.hidden = shown > 0;
  });
  sort.addEventListener('change', () => {
    const key = sort.value;
    const value = (item) => (key === 'name' ? item.getAttribute('data-name') || '' : -Number(item.getAttribute(`data-${key}`)));
    const sorted = [...items].sort((a, b) => {
      const left = value(a);
      const right = value(b);
      return left < right ? -1 : left > right ? 1 : 0;
    });
    for (const item of sorted) list.appendChild(item);
  });
  toggle.addEventListener('click', () => {
    const open = toggle.textContent === 'Expand all';
    for (const details of list.querySelectorAll('details')) details.open = open;
    toggle.textContent = open ? 'Collapse all' : 'Expand all';
  });
})();
