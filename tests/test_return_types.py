"""The result tuples of multi-output ops (`torch.return_types.max` & co.): struct sequences as
torch's, not namedtuples."""
import copy
import pickle

import pytest

import ember
from ember.utils.data import default_collate


def _max():
    return ember.max(ember.tensor([[1., 3.], [2., 0.]]), 1)


def test_items_have_names_and_the_type_counts_them():
    r = _max()
    values, indices = r
    assert r.values is values and r.indices is indices and r[-1] is indices
    assert isinstance(r, tuple) and len(r) == 2
    assert (type(r).n_fields, type(r).n_sequence_fields, type(r).n_unnamed_fields) == (2, 2, 0)
    assert values.tolist() == [3., 2.] and indices.tolist() == [1, 0]


def test_none_of_namedtuples_extras():
    # code that tells a namedtuple by `_fields` treats these as plain tuples, as torch's
    r = _max()
    for name in ("_fields", "_asdict", "_replace", "_make"):
        assert not hasattr(r, name)


def test_built_from_one_sequence_of_the_right_length():
    a, b = ember.tensor(1.), ember.tensor(2)
    r = ember.return_types.max((a, b))
    assert r.values is a and r.indices is b
    assert ember.return_types.sort([1, 2]).indices == 2
    with pytest.raises(TypeError, match=r"^torch.return_types.max\(\) takes a 2-sequence "
                                        r"\(3-sequence given\)$"):
        ember.return_types.max([1, 2, 3])
    with pytest.raises(TypeError, match=r"missing required argument 'sequence' \(pos 1\)"):
        ember.return_types.max(values=1, indices=2)


def test_printed_pickled_and_copied():
    r = _max()
    assert repr(r) == ("torch.return_types.max(\nvalues=tensor([3., 2.]),\n"
                       "indices=tensor([1, 0]))")
    for again in (pickle.loads(pickle.dumps(r)), copy.deepcopy(r)):
        assert type(again) is type(r) and again.values.tolist() == [3., 2.]
    assert type(r + (1,)) is tuple and hash(ember.return_types.sort((1, 2))) == hash((1, 2))


def test_default_collate_makes_a_list_of_them_as_torch():
    batch = [ember.return_types.sort((ember.tensor(1.), ember.tensor(0))) for _ in range(3)]
    out = default_collate(batch)
    assert type(out) is list and out[0].tolist() == [1., 1., 1.]
