// relink review: keyboard and in-place decisions. Without this script the
// page still works: rows are links, decisions are forms.
(function () {
  'use strict';
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.row'));
  var cur = rows.findIndex(function (r) { return r.classList.contains('sel'); });
  var flash = document.getElementById('flash');
  var labels = { accept: 'accepted', reject: 'rejected', '': 'open' };

  function detail(row) { return document.getElementById('d-' + row.dataset.id); }

  function say(text) {
    flash.textContent = text;
    flash.hidden = !text;
  }

  function select(i, scroll) {
    if (i < 0 || i >= rows.length) { return; }
    if (cur >= 0) {
      rows[cur].classList.remove('sel');
      rows[cur].removeAttribute('aria-selected');
      detail(rows[cur]).hidden = true;
    }
    cur = i;
    var row = rows[i];
    row.classList.add('sel');
    row.setAttribute('aria-selected', 'true');
    detail(row).hidden = false;
    if (scroll) { row.scrollIntoView({ block: 'nearest' }); }
    var u = new URL(location.href);
    u.searchParams.set('sel', row.dataset.id);
    history.replaceState(null, '', u);
  }

  rows.forEach(function (row, i) {
    row.addEventListener('click', function (e) {
      if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
      e.preventDefault();
      select(i, false);
    });
  });

  // showTop puts the candidate li beside the archived copy, as the server
  // does on a reload. Only text and a copy of the page's own nodes.
  function showTop(d, li) {
    var pane = d.querySelector('.pane.best');
    if (!pane || !pane.querySelector('.ptitle')) { return; }
    pane.querySelector('h3').textContent = 'Chosen new page';
    pane.querySelector('.ptitle').textContent = li.dataset.title;
    pane.querySelector('.ptext').textContent = li.dataset.snippet;
    pane.querySelector('.small').replaceChildren(li.querySelector('.curi').cloneNode(true));
  }

  // show puts a decision the server recorded on the page: the row, the
  // evidence's status line, the chosen candidate and the counts.
  function show(res) {
    var i = rows.findIndex(function (r) { return r.dataset.id === String(res.id); });
    if (i < 0) { return; }
    var row = rows[i];
    var d = detail(row);
    var cls = 'dec-' + (res.decision || 'open');
    var cell = row.querySelector('td.dec');
    cell.className = 'dec ' + cls;
    cell.textContent = labels[res.decision];
    row.querySelector('td.new').textContent = res.decision === 'accept' ? res.uri : row.dataset.proposed;
    var status = d.querySelector('p.status');
    status.className = 'status ' + cls;
    status.querySelector('.ruling').textContent = labels[res.decision];
    var chosen = status.querySelector('.chosen-uri');
    if (chosen) { chosen.remove(); }
    if (res.decision === 'accept') {
      chosen = document.createElement('span');
      chosen.className = 'chosen-uri';
      chosen.textContent = ' → ' + res.uri;
      status.appendChild(chosen);
    }
    d.querySelectorAll('li.cand').forEach(function (li) {
      var on = res.decision === 'accept' && li.dataset.uri === res.uri;
      li.classList.toggle('chosen', on);
      if (on) { showTop(d, li); }
    });
    document.getElementById('n-accepted').textContent = res.counts.accepted;
    document.getElementById('n-rejected').textContent = res.counts.rejected;
    document.getElementById('n-open').textContent = res.counts.open;
    if (i === cur && res.decision && cur + 1 < rows.length) { select(cur + 1, true); }
  }

  document.addEventListener('submit', function (e) {
    var form = e.target;
    if (!form.classList.contains('decide')) { return; }
    e.preventDefault();
    var data = new FormData(form, e.submitter);
    fetch(form.action, {
      method: 'POST',
      body: new URLSearchParams(data),
      headers: { 'Accept': 'application/json', 'X-Relink-Token': data.get('token') },
      credentials: 'same-origin'
    }).then(function (r) {
      if (!r.ok) { return r.text().then(function (t) { throw new Error(t); }); }
      return r.json();
    }).then(function (res) {
      say('');
      show(res);
    }).catch(function (err) {
      say('Not saved: ' + err.message);
    });
  });

  // turn goes to the page before or after this one (rel prev or next),
  // when there is one.
  function turn(rel) {
    var a = document.querySelector('nav.pages a[rel="' + rel + '"]');
    if (a) { location.href = a.href; }
  }

  function press(key) {
    if (cur < 0) { return; }
    var b = detail(rows[cur]).querySelector('button[data-key="' + key + '"]');
    if (b && !b.disabled) { b.click(); }
  }

  document.addEventListener('keydown', function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) { return; }
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) { return; }
    var k = e.key;
    if (k === 'j' || k === 'ArrowDown') {
      if (cur + 1 < rows.length) { select(cur + 1, true); } else { turn('next'); }
    } else if (k === 'k' || k === 'ArrowUp') {
      if (cur > 0) { select(cur - 1, true); } else { turn('prev'); }
    } else if (k === 'a' || k === 'r' || k === 'u' || /^[1-9]$/.test(k)) {
      press(k);
    } else {
      return;
    }
    e.preventDefault();
  });

  if (cur >= 0) { rows[cur].scrollIntoView({ block: 'nearest' }); }
}());
