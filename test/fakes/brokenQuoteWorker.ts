/** A quote worker whose module throws as it loads (a bad build, a missing native module). */
throw new Error('this quote worker cannot load');
