// texas42 wire: how the board's page and the table's talk to their server. The
// token (from the page's address) goes in the Authorization header of each request;
// no cookie is used. An answer is {status, body}; a server that is not answering is
// status 0, with a sentence that names it ("the board", "the table").
window.texas42Wire = function (token, server) {
  "use strict";
  return function api(method, path, body) {
    var opts = { method: method, headers: { "Authorization": "token " + token }, credentials: "omit", cache: "no-store" };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    return fetch(path, opts).then(function (r) {
      return r.json().then(function (j) { return { status: r.status, body: j }; },
        function () { return { status: r.status, body: { error: server + " sent no answer (" + r.status + ")" } }; });
    }, function () { return { status: 0, body: { error: server + " is not answering (stopped?)" } }; });
  };
};
