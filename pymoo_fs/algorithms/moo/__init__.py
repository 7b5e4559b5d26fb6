"""Multi-objective feature-selection algorithms (one module each)."""

from pymoo_fs.algorithms.moo.cmdpsofs import CMDPSOFS
from pymoo_fs.algorithms.moo.evolutionary import configure_nsga2, configure_spea2
from pymoo_fs.algorithms.moo.isrpso import ISRPSO
from pymoo_fs.algorithms.moo.mopso import MOPSO
from pymoo_fs.algorithms.moo.paes import PAES, configure_paes

__all__ = ["CMDPSOFS", "ISRPSO", "MOPSO", "PAES", "configure_nsga2", "configure_paes",
           "configure_spea2"]
