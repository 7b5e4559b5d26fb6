"""Single-objective feature-selection algorithms (one module each)."""

from pymoo_fs.algorithms.soo.amso import AMSO
from pymoo_fs.algorithms.soo.bbpsoacj import BBPSOACJ
from pymoo_fs.algorithms.soo.bpso import BPSO
from pymoo_fs.algorithms.soo.bvdpso import BVDPSO
from pymoo_fs.algorithms.soo.cepsofl import CEPSOFL
from pymoo_fs.algorithms.soo.cso import CSO
from pymoo_fs.algorithms.soo.fsipso import FSIPSO
from pymoo_fs.algorithms.soo.hfscp import HFSCP
from pymoo_fs.algorithms.soo.pso import PSO
from pymoo_fs.algorithms.soo.pso42 import PSO42
from pymoo_fs.algorithms.soo.sbpso import SBPSO
from pymoo_fs.algorithms.soo.sctsofs import SCTSOFS
from pymoo_fs.algorithms.soo.sequential import SBS, SFS, SequentialSelection
from pymoo_fs.algorithms.soo.srtso import SRTSO
from pymoo_fs.algorithms.soo.ubpso import UBPSO
from pymoo_fs.algorithms.soo.vlpso import VLPSO

__all__ = ["AMSO", "BPSO", "CEPSOFL", "CSO", "FSIPSO", "PSO", "PSO42", "SBPSO", "SBS", "SFS",
           "SequentialSelection", "UBPSO", "VLPSO"]
__all__ += ["SCTSOFS", "SRTSO"]
__all__ += ["BBPSOACJ", "BVDPSO", "HFSCP"]
