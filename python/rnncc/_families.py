"""The family builders, ``rnncc.families`` (private to the package): one-layer LRNN models from
exact parameters, their sizes checked before any entry is converted."""

from __future__ import annotations

from . import _rnncc
from ._common import (_check_builder, _exact_text, _first_symbol, _flag, _image_list,
                      _keywords, _matrix, _max_memory, _per_symbol, _rows, _scalar_or_vector,
                      _state_width, _symbols, _text, _vector, _width)
from ._models import Model


class families:
    """Family builders (rnn/families.hpp): one-layer LRNN models from exact parameters.

    Every entry must be exact: an int (or numpy integer), a ``fractions.Fraction`` or a string
    such as "1/2"; floats are refused. Per-symbol parameters are a dict keyed by symbol, or a
    list / array stacked on its first axis in alphabet order. Every builder also takes
    ``initial_state`` (S_0, d×m; zero unless given), ``readout_bias`` (r×m), ``accept``
    ("positive": y > 0, or "zero"), ``name`` and ``max_memory`` (MiB; default half the
    machine's memory).

    The sizes are checked before any entry is converted: d (from the first symbol's parameter)
    and m within a model file's limits (at most 4096, at most 2^24 dense entries), no argument
    larger than its shape, and the estimated peak memory below ``max_memory`` — an InputError
    otherwise, at once (docs/python.md, "Errors").

    Examples
    --------
    >>> m = rnncc.families.diagonal(["a", "b"], decay=[["1/2"], ["1/2"]],
    ...                             B=[[[1], [0]], [[0], [1]]], readout=[[1, -1]],
    ...                             family="mamba2")
    >>> m.describe()
    'lrnn/mamba2 d=2 m=1'
    """

    @staticmethod
    @_keywords()
    def diagonal(alphabet, decay, B, readout, *, family: str = "diagonal", initial_state=None,
                 readout_bias=None, accept: str = "positive", name: str = "",
                 max_memory: int | None = None) -> Model:
        """A diagonal layer: A_σ = diag(decay[σ]), B_σ = B[σ].

        Parameters
        ----------
        alphabet : list of str
            The symbols.
        decay : dict or stacked array
            Per symbol: d entries (diagonal, gla), one scalar (mamba2), the same for every
            symbol (s4).
        B : dict or stacked array
            Per symbol: d×m (a vector is one column).
        readout : matrix
            r×d.
        family : {"diagonal", "gla", "s4", "mamba2"}
            The family field of the model file.
        initial_state, readout_bias, accept, name, max_memory
            As for every builder (:class:`families`).

        Returns
        -------
        Model

        Raises
        ------
        InputError
            Naming the parameter and symbol: a float, a wrong shape, a missing symbol, a value
            the family does not allow.

        Examples
        --------
        >>> v = rnncc.families.diagonal(["a", "b"], decay={"a": "1/2", "b": "1/2"},
        ...     B={"a": [1, 0], "b": [0, 1]}, readout=[[1, -1]], family="mamba2")
        >>> [str(y) for y in v.run("abb").outputs[:, 0, 0]]
        ['1', '-1/2', '-5/4']
        """
        alphabet = _symbols(alphabet)
        first_B = _first_symbol(B, alphabet)
        _check_builder(_rows(first_B), _width(first_B), alphabet, readout,
                       (decay, B, readout, initial_state, readout_bias), max_memory, "B")
        decays = _per_symbol(decay, alphabet, "decay", _scalar_or_vector)
        Bs = _per_symbol(B, alphabet, "B", _matrix)
        init = None if initial_state is None else _matrix(initial_state, "initial_state")
        bias = None if readout_bias is None else _matrix(readout_bias, "readout_bias")
        return Model(_rnncc.build_diagonal(_text(family, "family"), alphabet, decays, Bs,
                                           _matrix(readout, "readout"), init, bias,
                                           _text(accept, "accept"), _text(name, "name"),
                                           _max_memory(max_memory)))

    @staticmethod
    @_keywords()
    def deltanet(alphabet, k, v, beta, readout, *, alpha=None, family: str = "deltanet",
                 beta_range: str = "any", initial_state=None, readout_bias=None,
                 accept: str = "positive", name: str = "",
                 max_memory: int | None = None) -> Model:
        """The delta rule: A_σ = I − β_σ k_σ k_σᵀ, B_σ = β_σ k_σ v_σᵀ.

        Parameters
        ----------
        alphabet : list of str
            The symbols.
        k, v : dict or stacked array
            Per symbol: the key (d entries) and the value (m entries).
        beta : dict or list
            Per symbol: β_σ.
        readout : matrix
            r×d.
        alpha : dict or stacked array, optional
            gated_deltanet: a scalar per symbol multiplying A; kda: d entries (diag(alpha)).
        family : {"deltanet", "gated_deltanet", "kda"}
        beta_range : {"any", "(0,1)", "(0,1]", "(0,2)", "(0,2]"}
            Checked for every β.
        initial_state, readout_bias, accept, name, max_memory
            As for every builder.

        Returns
        -------
        Model

        Raises
        ------
        InputError
            Naming the parameter and symbol (β outside beta_range, a float, a wrong shape).

        Examples
        --------
        >>> p = rnncc.families.deltanet(["0", "1"], k={"0": [0], "1": [1]},
        ...     v={"0": [0], "1": [0]}, beta={"0": 0, "1": 2}, readout=[[1]], initial_state=[[1]])
        >>> [str(p.run(s).outputs[-1, 0, 0]) for s in ["1", "11", "101"]]
        ['-1', '1', '1']
        """
        alphabet = _symbols(alphabet)
        _check_builder(_rows(_first_symbol(k, alphabet)), _rows(_first_symbol(v, alphabet)),
                       alphabet, readout,
                       (k, v, beta, alpha, readout, initial_state, readout_bias), max_memory, "k")
        ks = _per_symbol(k, alphabet, "k", _vector)
        vs = _per_symbol(v, alphabet, "v", _scalar_or_vector)
        betas = _per_symbol(beta, alphabet, "beta", _exact_text)
        alphas = [] if alpha is None else _per_symbol(alpha, alphabet, "alpha",
                                                      _scalar_or_vector)
        init = None if initial_state is None else _matrix(initial_state, "initial_state")
        bias = None if readout_bias is None else _matrix(readout_bias, "readout_bias")
        return Model(_rnncc.build_delta(_text(family, "family"), alphabet, alphas, betas, ks, vs,
                                        _matrix(readout, "readout"), init, bias,
                                        _text(beta_range, "beta_range"), _text(accept, "accept"),
                                        _text(name, "name"), _max_memory(max_memory)))

    @staticmethod
    @_keywords()
    def general(alphabet, A, readout, *, B=None, initial_state=None, readout_bias=None,
                accept: str = "positive", name: str = "", max_memory: int | None = None) -> Model:
        """Any affine step: S_t = A_σ S_{t−1} + B_σ.

        Parameters
        ----------
        alphabet : list of str
            The symbols.
        A : dict or stacked array
            Per symbol: d×d.
        readout : matrix
            r×d.
        B : dict or stacked array, optional
            Per symbol: d×m; zero when not given.
        initial_state, readout_bias, accept, name, max_memory
            As for every builder.

        Returns
        -------
        Model

        Raises
        ------
        InputError
            Naming the parameter and symbol.

        Examples
        --------
        >>> c = rnncc.families.general(["a"], A={"a": [[1, 1], [0, 1]]}, readout=[[1, 0]],
        ...                            initial_state=[[0], [1]])
        >>> [int(y) for y in c.run("aaa").outputs[:, 0, 0]]
        [1, 2, 3]
        """
        alphabet = _symbols(alphabet)
        _check_builder(_rows(_first_symbol(A, alphabet)), _state_width(B, initial_state, alphabet),
                       alphabet, readout, (A, B, readout, initial_state, readout_bias),
                       max_memory, "A")
        As = _per_symbol(A, alphabet, "A", _matrix)
        Bs = [] if B is None else _per_symbol(B, alphabet, "B", _matrix)
        init = None if initial_state is None else _matrix(initial_state, "initial_state")
        bias = None if readout_bias is None else _matrix(readout_bias, "readout_bias")
        return Model(_rnncc.build_general(alphabet, As, Bs, _matrix(readout, "readout"), init,
                                          bias, _text(accept, "accept"), _text(name, "name"),
                                          _max_memory(max_memory)))

    @staticmethod
    @_keywords()
    def pd(alphabet, P, readout, *, D=None, B=None, permutation: bool = False,
           initial_state=None, readout_bias=None, accept: str = "positive",
           name: str = "", max_memory: int | None = None) -> Model:
        """PD-SSM: A_σ = P_σ·diag(D_σ).

        Parameters
        ----------
        alphabet : list of str
            The symbols.
        P : dict or stacked array
            Per symbol: the image list (P_σ e_j = e_{P[σ][j]}) or a 0/1 column-one-hot matrix.
        readout : matrix
            r×d.
        D : dict or stacked array, optional
            Per symbol: d entries; ones when not given.
        B : dict or stacked array, optional
            Per symbol: d×m; zero when not given.
        permutation : bool, default False
            Require every P_σ to be a permutation (the NC¹ row).
        initial_state, readout_bias, accept, name, max_memory
            As for every builder.

        Returns
        -------
        Model

        Raises
        ------
        InputError
            Naming the parameter and symbol (a row index out of range, not one-hot, not a
            permutation).

        Examples
        --------
        >>> c3 = rnncc.families.pd(["a"], P={"a": [1, 2, 0]}, readout=[[1, 0, 0]],
        ...                        initial_state=[1, 0, 0], permutation=True)
        >>> [int(y) for y in c3.run("aaaaaa").outputs[:, 0, 0]]
        [0, 0, 1, 0, 0, 1]
        """
        alphabet = _symbols(alphabet)
        _check_builder(_rows(_first_symbol(P, alphabet)), _state_width(B, initial_state, alphabet),
                       alphabet, readout, (P, D, B, readout, initial_state, readout_bias),
                       max_memory, "P")
        Ps = _per_symbol(P, alphabet, "P", _image_list)
        Ds = [] if D is None else _per_symbol(D, alphabet, "D", _scalar_or_vector)
        Bs = [] if B is None else _per_symbol(B, alphabet, "B", _matrix)
        init = None if initial_state is None else _matrix(initial_state, "initial_state")
        bias = None if readout_bias is None else _matrix(readout_bias, "readout_bias")
        return Model(_rnncc.build_pd(alphabet, Ps, Ds, Bs, _matrix(readout, "readout"), init,
                                     bias, _flag(permutation, "permutation"),
                                     _text(accept, "accept"), _text(name, "name"),
                                     _max_memory(max_memory)))

    @staticmethod
    @_keywords()
    def dplr(alphabet, D, a, b, readout, *, B=None, initial_state=None, readout_bias=None,
             accept: str = "positive", name: str = "", max_memory: int | None = None) -> Model:
        """Diagonal plus low rank: A_σ = diag(D_σ) − a_σ b_σᵀ (the PNC¹ row).

        Parameters
        ----------
        alphabet : list of str
            The symbols.
        D, a, b : dict or stacked array
            Per symbol: d entries each.
        readout : matrix
            r×d.
        B : dict or stacked array, optional
            Per symbol: d×m; zero when not given.
        initial_state, readout_bias, accept, name, max_memory
            As for every builder.

        Returns
        -------
        Model

        Raises
        ------
        InputError
            Naming the parameter and symbol.

        Examples
        --------
        >>> m = rnncc.families.dplr(["x"], D={"x": [1, 1]}, a={"x": [1, 0]}, b={"x": [1, 0]},
        ...                         readout=[[1, 1]], initial_state=[1, 1])
        >>> [int(y) for y in m.run("xx").outputs[:, 0, 0]]
        [1, 1]
        """
        return families._low_rank("dplr", alphabet, D, "D", a, b, B, readout, initial_state,
                                  readout_bias, accept, name, max_memory)

    @staticmethod
    @_keywords()
    def rwkv7(alphabet, w, a, b, readout, *, B=None, initial_state=None, readout_bias=None,
              accept: str = "positive", name: str = "", max_memory: int | None = None) -> Model:
        """RWKV-7's generalized delta rule: A_σ = diag(w_σ) + a_σ b_σᵀ.

        Parameters
        ----------
        alphabet : list of str
            The symbols.
        w, a, b : dict or stacked array
            Per symbol: d entries each.
        readout : matrix
            r×d.
        B : dict or stacked array, optional
            Per symbol: d×m; zero when not given.
        initial_state, readout_bias, accept, name, max_memory
            As for every builder.

        Returns
        -------
        Model

        Raises
        ------
        InputError
            Naming the parameter and symbol.

        Examples
        --------
        >>> m = rnncc.families.rwkv7(["x"], w={"x": [1, 1]}, a={"x": [1, 0]}, b={"x": [0, 1]},
        ...                          readout=[[1, 0]], initial_state=[0, 1])
        >>> [int(y) for y in m.run("xx").outputs[:, 0, 0]]
        [1, 2]
        """
        return families._low_rank("rwkv7", alphabet, w, "w", a, b, B, readout, initial_state,
                                  readout_bias, accept, name, max_memory)

    @staticmethod
    def _low_rank(family, alphabet, diagonal, dname, a, b, B, readout, initial_state,
                  readout_bias, accept, name, max_memory):
        alphabet = _symbols(alphabet)
        _check_builder(_rows(_first_symbol(diagonal, alphabet)),
                       _state_width(B, initial_state, alphabet), alphabet, readout,
                       (diagonal, a, b, B, readout, initial_state, readout_bias), max_memory,
                       dname)
        Ds = _per_symbol(diagonal, alphabet, dname, _scalar_or_vector)
        As = _per_symbol(a, alphabet, "a", _scalar_or_vector)
        Bv = _per_symbol(b, alphabet, "b", _scalar_or_vector)
        Bs = [] if B is None else _per_symbol(B, alphabet, "B", _matrix)
        init = None if initial_state is None else _matrix(initial_state, "initial_state")
        bias = None if readout_bias is None else _matrix(readout_bias, "readout_bias")
        return Model(_rnncc.build_low_rank(family, alphabet, Ds, As, Bv, Bs,
                                           _matrix(readout, "readout"), init, bias,
                                           _text(accept, "accept"), _text(name, "name"),
                                           _max_memory(max_memory)))
