/*
 * provider-sim's stand-in for GalaxPay's (Celcoin) checkout.js, with the same API:
 *
 *   const galaxPay = new GalaxPay(publicToken, production);
 *   const card = galaxPay.newCard({ number, holder, expiresAt: 'YYYY-MM', cvv });
 *   galaxPay.hashCreditCard(card, (hash) => ..., (error) => ...);
 *
 * The card goes from the browser straight to the simulator, which answers a hash valid for
 * five minutes; the shop's server only ever sees the hash.
 */
(function () {
  var script = document.currentScript;
  var base = script ? new URL(script.src).origin : '';

  function GalaxPay(publicToken, production) {
    this.publicToken = publicToken;
    this.production = !!production;
  }

  GalaxPay.prototype.newCard = function (card) {
    return {
      number: String(card.number || ''),
      holder: String(card.holder || ''),
      expiresAt: String(card.expiresAt || ''),
      cvv: String(card.cvv || ''),
    };
  };

  GalaxPay.prototype.hashCreditCard = function (card, onSuccess, onError) {
    // text/plain keeps this a simple cross-origin request (no preflight).
    fetch(base + '/js/card-hash', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify({ publicToken: this.publicToken, Card: card }),
    })
      .then(function (response) {
        return response.json().then(function (body) {
          if (response.ok && body.hash) onSuccess(body.hash);
          else onError((body.error && body.error.message) || 'Cartão inválido.');
        });
      })
      .catch(function () {
        onError('Falha de comunicação com o provedor.');
      });
  };

  window.GalaxPay = GalaxPay;
})();
