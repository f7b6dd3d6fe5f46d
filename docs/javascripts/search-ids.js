// The site search keeps a clause ID whole: the index reads "ATK-4" as one word (mkdocs.yml's
// search separator joins a hyphen to the digit after it). Lunr's query parser splits a query at
// every hyphen, so the hyphen of an ID typed into the box is escaped on the query's way to the
// search worker (Material's documented message: {type: 2, data: query}, 2 being QUERY). The
// query passes through two lunr parsers, one after the other: each removes one escape, hence
// three backslashes for the two. The box still shows what the reader typed.
(() => {
  const QUERY = 2;
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && message.type === QUERY && typeof message.data === "string") {
      message = { ...message, data: message.data.replace(/(\p{L})-(?=\d)/gu, "$1\\\\\\-") };
    }
    return post.call(this, message, ...rest);
  };
})();
